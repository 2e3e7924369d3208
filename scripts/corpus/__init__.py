"""Workflow steps: corpus."""
