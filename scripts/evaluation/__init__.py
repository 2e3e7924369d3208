"""Workflow steps: evaluation."""
