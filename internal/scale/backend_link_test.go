package scale

// The end-to-end benchmark opens workbooks through core/session, which
// needs the engine behind it linked as cubectl links it.
import _ "cubeworkbench/core/session/backend"
