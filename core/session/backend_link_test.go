package session_test

// The session's own tests run with the real backend linked, as the
// programs do.
import _ "cubeworkbench/core/session/backend"
