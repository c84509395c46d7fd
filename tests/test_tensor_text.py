"""A printed tensor's text is PyTorch's own, whether it was formatted now or kept from an earlier run
(ui/draw/show.py ``tensor_text``)."""

from __future__ import annotations

import pytest
import torch

from ui.draw.show import tensor_text


def _cases() -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(789)
    weights = torch.softmax(torch.randn(6, 6, generator=g), dim=-1)
    masked = torch.randn(6, 6, generator=g).masked_fill(torch.triu(torch.ones(6, 6, dtype=torch.bool), 1), -torch.inf)
    return [weights, masked, weights * 1e6, weights * 1e-7, torch.tensor([0.4419, float("nan")]),
            torch.randn(2, 3, 6, 4, generator=g, requires_grad=True) @ torch.ones(4, 2),  # has a grad_fn
            torch.arange(12).reshape(3, 4), torch.ones(2, 2, dtype=torch.bool), weights.double(), weights.T,
            torch.randn(70, 70, generator=g),  # summarised by PyTorch (over its threshold of 1000 elements)
            torch.tensor(3.5), torch.empty(0, 3), weights.half(), torch.randn(100, 100, generator=g)]


@pytest.mark.parametrize("case", range(len(_cases())))
def test_the_text_is_what_pytorch_prints_the_first_time_and_the_next(case):
    t = _cases()[case]
    expected = repr(t.detach().cpu())
    assert tensor_text(t) == expected
    assert tensor_text(t.clone()) == expected  # the same values again: the kept text


def test_print_options_are_part_of_what_the_text_depends_on():
    t = torch.tensor([[0.123456789, 2.0]])
    assert tensor_text(t) == "tensor([[0.1235, 2.0000]])"
    torch.set_printoptions(precision=2)
    try:
        assert tensor_text(t) == repr(t) == "tensor([[0.12, 2.00]])"
    finally:
        torch.set_printoptions(precision=4)
    assert tensor_text(t) == "tensor([[0.1235, 2.0000]])"


def test_different_values_of_one_shape_are_never_confused():
    a, b = torch.zeros(2, 3), torch.zeros(2, 3)
    b[1, 2] = 1.0
    assert tensor_text(a) != tensor_text(b) and tensor_text(b) == repr(b)
    assert tensor_text(torch.zeros(3, 2)) == repr(torch.zeros(3, 2)) != tensor_text(a)  # same bytes, other shape
    assert tensor_text(torch.tensor([1, 0])) != tensor_text(torch.tensor([True, False]))  # other dtype
