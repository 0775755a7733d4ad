"""Data files of evaluators.steb_scores (paper tables, STEB repository facts)."""
