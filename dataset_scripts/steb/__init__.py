"""Build scripts for STEB datasets (Rivera Soto, Wegmann, Aggazzotti 2026)."""

STEB_CITATION = """@article{riverasoto2026steb,
  title   = {{STEB}: Style Text Embedding Benchmark},
  author  = {Rivera Soto, Rafael and Wegmann, Anna and Aggazzotti, Cristina},
  journal = {arXiv preprint arXiv:2606.31741},
  year    = {2026}
}"""
