"""The result record: one (model, dataset, task) result as a run writes it and a results
repository holds it (:mod:`.record`), its per-item arrays (:mod:`.items`), the dataset
ids and safe names it is filed under (:mod:`.ids`), where it lives (:mod:`.paths`) and
the languages of its dataset (:mod:`.languages`). Below the tasks, the runner and the
results venue; imports only ``dataset_scripts.core`` and ``metric_math``."""
