"""The learning loop's scheduling rules beside SM-2, each a pure module taking the day as a parameter.

* :mod:`.pace` - how many new items a day an interview date needs, finishing new items by
  about two thirds of the time left (figures that add up; the limit changes only when the learner accepts).
* :mod:`.stretch` - where an item's last reviews before the interview go: spread over the final days,
  as late as its memory needs, nothing forced on the interview day, never past the daily cap.
* :mod:`.interleave` - the order of a day's reviews: neighbours rarely share a topic, the most overdue first.
* :mod:`.readiness` - the probability of answering a fresh problem right on a day, per topic, fitted on the
  learner's own answers (a three-feature logistic by Newton steps; for a later day, the plan's days in
  between projected), and its calibration a week ahead.
* :mod:`.fsrs_bridge` - FSRS (the ``fsrs`` package, default or fitted weights, whole days, no fuzz) beside SM-2.
* :mod:`.fsrs_fit` - FSRS-6 weights fitted to the learner's log and a retention's simulated workload
  (``fsrs-rs-python``).
* :mod:`.chains` - what a chain's answer means for the schedule: its quality, the step to practise alone.

None of them does I/O or reads a clock: the caller passes the day.
"""
