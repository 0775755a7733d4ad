"""Build scripts for STEB datasets (Rivera Soto, Wegmann, Aggazzotti 2026)."""

STEB_CITATION = """@article{riverasoto2026steb,
  title   = {{STEB}: The Style Text Embedding Benchmark},
  author  = {Rivera Soto, Rafael and Wegmann, Anna and Aggazzotti, Cristina},
  year    = {2026}
}"""
