"""Getting raw data: the checksum registry (``checksums.tsv``, :mod:`.checksums`), the
one HTTP client (:mod:`.http`), safe extraction (:mod:`.extract`) and the fetch step
that turns a declared :class:`~dataset_scripts.core.source.Source` into a verified raw
folder (:mod:`.fetch`). Builders never download: they read the folder this returns."""
