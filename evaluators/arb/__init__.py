"""ARB evaluation: detectors, block-bootstrap statistics, report and CLI."""
