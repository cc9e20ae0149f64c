"""Typical inputs of the spec's part-4 formulas, for tests/unit/test_formulas.py's properties: values of the
spec's 2026 ranges, where every named misconception differs from the right answer."""

from hypothesis import strategies as st

fl = st.floats
ints = st.integers

PART4_TYPICAL = {
    # queueing: ρ 0.5-0.95, service 50 ms-5 s, cv_service 0.5-3 (the spec's ranges); percentiles p90-p99.9
    "utilisation": lambda d: (lambda lam, c, rho: {"arrival_rate": lam, "servers": c, "service_time": rho * c / lam})(
        d(fl(1, 50)), d(ints(2, 8)), d(fl(0.3, 0.95))),  # two servers or more: one would be the misconception's answer
    "mm1_wait": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5))},
    "mm1_response_time": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5))},
    "md1_wait": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5))},
    "kingman_wait": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5)),
                               "cv_arrival": d(fl(0.5, 1.5)), "cv_service": d(fl(1.5, 3))},
    # not p95: 3.0 x the mean there, the "mean + 2 sd" slip's answer
    "mm1_response_percentile": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5)),
                                          "percentile": d(st.sampled_from([0.9, 0.99, 0.999]))},
    "mm1_max_rate_for_slo": lambda d: (lambda s: {"service_time": s, "latency_target": s * d(fl(6, 15)),
                                                  "percentile": d(st.sampled_from([0.9, 0.99]))})(d(fl(0.05, 1))),
}
