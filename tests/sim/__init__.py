"""A deterministic simulator of evenings at one table (issue 31), after FoundationDB's
simulation testing and TigerBeetle's VOPR.

``world`` (clock, queue, seeded random, network), ``laptop`` (the glue that does
what the net shells do: the one module to adapt when they change), ``faults``,
``invariants``, ``evening`` (one evening from a seed) and ``shortcuts`` (work every
laptop would repeat, done once a process).  Run many with
``scripts/simulate_evenings.py --seeds N [--jobs J]``; replay one with ``--seed S
--seeds 1 --trace``.
"""
