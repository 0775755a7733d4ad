"""Hub ids of the models the encoder table and the STEB routing name (no imports: the
table, the routing and the adapters all read them)."""

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"
NEUROBIBER_ID = "Blablablab/neurobiber"
LUAR_IDS = ("rrivera1849/LUAR-MUD", "rrivera1849/LUAR-CRUD")
