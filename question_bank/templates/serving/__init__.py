"""Serving templates: latency, quantisation, PagedAttention, capacity, KV reuse, disaggregation."""
