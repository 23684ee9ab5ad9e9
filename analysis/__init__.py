"""Analysis side of the Golem balance lab: reads runs, never plays them.

``run`` reads run directories into tables; ``stats`` computes statistics over those tables
(DataFrames in, DataFrames out); ``plots`` draws them (Axes out); ``report`` builds documents from
both. Orchestration that plays runs (studies, experiments, balance searches) is in
``simulate.orchestration``. See docs/architecture.md.
"""
