"""Inference templates: memory footprint, decode and prefill bounds, capacity, KV compression, RL rollouts."""
