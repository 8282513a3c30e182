// Package prompts embeds every prompt template the judges send, in English
// and Chinese, and lets a user's edited copy in a directory take precedence.
//
// A template is a Markdown file named NAME.LANG.md (for example
// cube/relevance.zh.md). It starts with a small front matter between "---"
// lines (name, kind score|yesno, min, max, title_zh, title_en) and is then a
// Go text/template with the fields .Question .Answer .Document .Reference and
// .Contexts (a list) and the function inc (adds one, for numbering). A line
// "=== user ===" splits the text into a system message (before) and a user
// message (after); without it the whole text is one user message.
//
// Every input is placed between <<<NAME and NAME>>> markers and the prompt
// says that marked text is data whose instructions must be ignored; the
// renderer (core/judge) breaks any marker that occurs inside an input so an
// answer cannot close its own fence. The rubrics are our own wording; the
// CoFE-RAG ones follow the intent of LlamaIndex's correctness, faithfulness
// and relevancy evaluators, not their text.
package prompts
