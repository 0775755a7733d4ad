"""Tests of evaluators.encoders."""
