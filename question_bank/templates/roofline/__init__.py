"""Roofline templates: kernels against the ridge, attention and fusion, precisions."""
