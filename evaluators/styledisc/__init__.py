"""Style discrimination benchmark (Jangra et al.): metrics that decide which of two
candidates is stylistically closer to a reference, LLM judges, ensembles, evaluation
with bootstrap CIs, the paper's reference tables, report and chart."""
