"""Bring your own data: turn a user's files into a Hub-ready stylebench dataset folder.

``stylebench build --from <file or folder> --schema <schema> --out <dir>`` (and
:func:`dataset_scripts.custom.build.build_from_source` from Python) reads

* a CSV / TSV (header row), JSON lines, a JSON list of objects or a Parquet file
  (``.gz`` accepted for the text formats);
* a folder of text files (``*.txt``, ``*.txt.gz``): the label is the sub-folder a file
  sits in (``--label-from folder``) or a named group ``(?P<label>...)`` of a regular
  expression matched against the file's relative path (``--file-pattern``);
* a Hugging Face dataset: a folder written by ``Dataset.save_to_disk``, a folder of data
  files ``datasets.load_dataset`` reads, or a Hub id (``org/name``; needs the network);

maps its columns (``--text-column``, ``--label-column``, ``--doc-column``, ...), optionally
cuts documents into passages (``--chunk-words N``, ``--chunks-per-doc K``, seeded), forms
the rows of the chosen schema (for retrieval: STEB's queries and targets of several
passages per author, split by *document*), validates them with the shared schemas and
writes the folder with the shared writer (:func:`dataset_scripts.core.hub_folder.write_hub_folder`),
with a card naming the source, the column mapping, the counts and every dropped row.

Modules: :mod:`.readers` (input formats -> rows), :mod:`.forming` (rows -> schema rows,
chunking, retrieval split), :mod:`.build` (options, card, writer), :mod:`.suggest` (the
exact ``build --from`` command for a path that is not a dataset folder yet).
"""

from dataset_scripts.custom.build import SCHEMA_CHOICES, BuildOptions, build_from_source
from dataset_scripts.custom.suggest import build_command_for

__all__ = ["SCHEMA_CHOICES", "BuildOptions", "build_command_for", "build_from_source"]
