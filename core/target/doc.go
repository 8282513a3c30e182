// Package target asks the RAG system under test for its answers and the
// documents it retrieved, so CuBE can rank the gold document and judge the
// answer. Connectors: RAGFlow's chat API (the CuBE paper's system was built
// on RAGFlow), Dify's chat-messages API, a plain OpenAI-compatible endpoint
// (answer only) and a generic HTTP JSON endpoint described by a request
// template and JSON paths. Response shapes follow shared/spec/apis.md.
package target
