"""Communication templates: collectives, NCCL measurements, the network fabric, context parallelism."""
