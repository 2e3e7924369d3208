"""Workflow steps: benchmarks."""
