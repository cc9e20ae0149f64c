"""MFU templates: FLOPs, utilisation and training time, scaling laws, long-context FLOPs."""
