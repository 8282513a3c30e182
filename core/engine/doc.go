// Package engine runs an evaluation: it generates what is missing (questions,
// bound answers), collects the system's answers, has every judge score every
// answer on every dimension through the run store, and computes CuBE, MFSS
// and CoFE-RAG from the results. It knows nothing of windows or terminals:
// it reports progress as events, and a cancelled or killed run resumes from
// the store without repeating a finished call. Its results are the types of
// core/result; front ends reach it through core/session.
package engine
