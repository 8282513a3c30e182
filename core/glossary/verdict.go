package glossary

import "cubeworkbench/core/text"

// VerdictCode is a deployment verdict as SUMMARY.json spells it
// (result.Verdict.Code). Its words come from here only: the report, the
// brief, the window and the CLI all call Words, so one export cannot say
// one verdict in two wordings (the report and the brief once did).
type VerdictCode string

// The deployment verdicts, from best to undetermined.
const (
	Deployable   VerdictCode = "deployable"
	NeedsWork    VerdictCode = "needs_work"
	NotReady     VerdictCode = "not_ready"
	Undetermined VerdictCode = "undetermined"
)

// VerdictCodes lists the verdicts in order, best first.
func VerdictCodes() []VerdictCode {
	return []VerdictCode{Deployable, NeedsWork, NotReady, Undetermined}
}

// ID is the glossary id naming the verdict.
func (c VerdictCode) ID() ID { return ID("verdict." + string(c)) }

// Known says c is one of the four verdicts.
func (c VerdictCode) Known() bool { return Known(c.ID()) }

// Text is the verdict's name in both languages, e.g. 需改进后部署; an
// unknown code is shown as it is.
func (c VerdictCode) Text() text.Text {
	if !c.Known() {
		return text.New(string(c), string(c))
	}
	return Text(c.ID())
}

// Words is the verdict's name in lang.
func (c VerdictCode) Words(lang text.Lang) string { return c.Text().In(lang) }
