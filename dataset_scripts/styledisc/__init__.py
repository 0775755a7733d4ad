"""Style discrimination benchmark (Jangra et al.): (reference, positive, negative)
triplets in three settings (DD, AA, LLM), one Hub dataset ``styledisc/<domain>`` per
writing domain. See :mod:`dataset_scripts.styledisc.build`."""
