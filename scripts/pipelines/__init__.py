"""Workflow steps: pipelines."""
