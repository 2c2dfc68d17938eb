"""The shape predicates of the figure checks (checks/claims/zealous/figures.py) decide both ways, at their tolerances."""

from privclaims.checks.claims.zealous.figures import STEP_ABS, close, decreases, decreases_or_flat, flat


def test_decreases_needs_a_lower_far_end_and_bounded_steps_up():
    assert decreases([0.9, 0.8, 0.82, 0.5], STEP_ABS)  # one step up by 0.02 <= 0.05 is noise
    assert not decreases([0.9, 0.8, 0.9, 0.5], STEP_ABS)  # a step up by 0.1 is not
    assert not decreases([0.0, 0.0, 0.0], STEP_ABS)  # flat (nothing released) is no decrease
    assert not decreases([0.5, None], STEP_ABS)
    assert decreases([10.0, 10.4, 9.0], 0.05, relative=True) and not decreases([10.0, 11.0, 9.0], 0.05, relative=True)


def test_decreases_or_flat_allows_ties_but_not_rises():
    assert decreases_or_flat([0.0, 0.0]) and decreases_or_flat([1.0, 1.04]) and not decreases_or_flat([0.5, 0.6])


def test_flat_and_close():
    assert flat([0.36, 0.35, 0.34]) and not flat([0.36, 0.30])
    assert not flat([0.0, 0.0]) and not flat([0.3, None])  # no utility, or undefined, is not 'marginal loss'
    assert close(1.0, 1.08, 0.1) and not close(1.0, 1.2, 0.1) and not close(None, 1.0, 0.1) and not close(0.0, 0.0, 0.1)


def test_shape_holding_on_an_empty_release_is_not_a_reproduction():
    from privclaims.checks.claims.zealous.figures import shape

    assert shape("r", True, "a shape", "found").verdict == "reproduced"
    assert shape("r", True, "a shape", "found", empty=[]).verdict == "reproduced"
    vacuous = shape("r", True, "a shape", "found", empty=["query pairs, eps=1"])
    assert vacuous.verdict == "unverifiable" and "only because ZEALOUS released nothing" in vacuous.why
    assert shape("r", False, "a shape", "found", empty=["query pairs, eps=1"]).verdict == "unverifiable"
