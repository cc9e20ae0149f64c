"""Parametric problem templates and the hardware / model catalogues, built on ``engine``."""
