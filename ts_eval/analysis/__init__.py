"""Fine-grained analysis of one system, two or many against gold (issue 19)."""
