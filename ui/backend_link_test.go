package ui

// The front end's tests run with the real backend behind the session, as
// cmd/cube and cmd/cubectl link it; the package itself never imports it.
import _ "cubeworkbench/core/session/backend"
