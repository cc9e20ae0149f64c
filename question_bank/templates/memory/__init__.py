"""Training-memory templates: static memory and ZeRO, activations, parameter counts, post-training."""
