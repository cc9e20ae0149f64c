"""One module per topic; each registers its templates with ``@template``."""
