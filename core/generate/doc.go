// Package generate writes what an evaluation needs and the workbook lacks:
// a citizen-style question per guide, CoFE-RAG coarse and fine keywords per
// question, and the two CuBE bound sets — the zero set (the bare LLM, the
// same answer prompt with no context) and the full set (the LLM given only
// the gold document). Prompts live in prompts/generate, Chinese and English.
package generate
