// Package humancheck is the human spot-check (人工抽检) of an evaluation:
// people rate a drawn sample of answers blind, and their ratings are set
// beside the judges' scores.
//
// Draw picks the sample: questions are put in strata (not retrieved, low
// score, judge disagreement, the rest) so the hard cases are present, each
// stratum is sampled at random without replacement, and every drawn
// question shows one answer (the system's, the no-context or the
// gold-guide one) chosen at random. The design — strata, their sizes and
// each answer's inclusion probability — is kept with the draw so that the
// estimates weight each answer by the inverse of that probability
// (Hájek), and oversampling the hard cases does not bias the means.
//
// Compute sets the ratings beside the judges: per judge and dimension the
// agreement with the people's mean (Krippendorff's interval α, Spearman's
// ρ, the mean absolute difference, each with a bootstrap interval), the
// people's mean beside each judge's (the paper's Table 5) and which judge
// to trust. Agree is the one figure a caller outside needs (the judge
// qualification): how far one judge's scores agree with people's.
//
// Cards are what a rater sees: question, gold guide and answer, never the
// set the answer came from nor any score.
package humancheck
