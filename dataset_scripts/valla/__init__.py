"""Valla (Tyo, Dhingra & Lipton 2022): standardised authorship attribution (AA) and
authorship verification (AV) datasets, one builder module per source.

Every Valla dataset is written with two configs of the shared schemas:

- ``labelled_texts`` (AA): ``id``, ``text``, ``label`` = the author; splits ``train``,
  ``validation``, ``test`` and, where the source allows, ``cross_topic_validation``,
  ``cross_topic_test``, ``cross_genre_validation``, ``cross_genre_test``,
  ``unseen_author_validation``, ``unseen_author_test``.
- ``text_pairs`` (AV): ``id``, ``text1``, ``text2``, ``label`` (1 same author, 0 different),
  derived from each AA split with a fixed seed (see :mod:`dataset_scripts.valla.splits`).
"""
