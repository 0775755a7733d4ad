"""ARB (Perrone 2026): quartet builders and the generation pipeline."""
