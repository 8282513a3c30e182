// Package dataset holds the nouns every other package shares: guides (the
// knowledge base), items (questions with their answers and retrieved lists),
// judgements (one judge's score of one answer on one dimension) and expert
// ratings. It has no behaviour beyond small helpers, so that ingest, the
// engine, the three methods and the report agree on one shape.
package dataset
