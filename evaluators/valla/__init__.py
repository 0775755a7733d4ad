"""Valla's baseline methods (Ngram, PPM, BERT, Siamese BERT), their evaluation on Valla
datasets, the paper's reference tables and the report beside the user's runs."""
