"""The shared lower layer of stylebench: what both the dataset builders
(``dataset_scripts``) and the evaluators (``evaluators``) use.

errors (:mod:`.errors`), the dataset declaration (:mod:`.spec`), table schemas
(:mod:`.schema`, :mod:`.schemas`, :mod:`.arb_schema`, :mod:`.styledisc_schema`), Hub-folder
I/O and the built-folder marker (:mod:`.hub_folder`, :mod:`.cards`), ``datasets`` quieting
(:mod:`.quiet`) and the OpenAI-compatible HTTP client (:mod:`.openai_client`).
Nothing here imports the rest of ``dataset_scripts`` or anything of ``evaluators``.
"""
