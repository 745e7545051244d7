#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Inception-v4 as plain torch.nn modules, written from its paper.

C. Szegedy, S. Ioffe, V. Vanhoucke, A. Alemi, "Inception-v4, Inception-ResNet and the Impact of
Residual Connections on Learning", AAAI 2017 (arXiv 1602.07261). Figure numbers below are the
paper's:

  Fig. 9   the whole network: input 299x299x3, stem, 4 x Inception-A, Reduction-A,
           7 x Inception-B, Reduction-B, 3 x Inception-C, average pooling, dropout (keep 0.8),
           softmax over 1000 classes
  Fig. 3   the stem (299x299x3 -> 35x35x384)
  Fig. 4   Inception-A (35x35 grid, 384 channels)
  Fig. 7   Reduction-A (35x35 -> 17x17) with k=192, l=224, m=256, n=384 (Table 1, Inception-v4)
  Fig. 5   Inception-B (17x17 grid, 1024 channels)
  Fig. 8   Reduction-B (17x17 -> 8x8)
  Fig. 6   Inception-C (8x8 grid, 1536 channels)

The figures draw convolutions only. Every convolution here is conv (no bias) + batch norm +
ReLU: the paper says batch norm is used "on top of the traditional layers" and ReLU is the
figures' implicit activation (Section 3); this is the usual reading, the one of the
TensorFlow-slim reference and of the widely used PyTorch ports. "V" in the figures marks a
"valid" (unpadded) convolution or pooling; every other one is "same" (padded). Where a figure
writes "1x7" the kernel here is (1, 7), i.e. 1 row by 7 columns, and "7x1" is (7, 1).

Parameter count (inception_v4(), 1000 classes): 42,679,816, the ~42.7 M of the widely used
implementation (Cadene's pretrainedmodels / timm inception_v4: 42.68 M); batch-norm running
statistics are buffers, not parameters. `python3 inception_v4.py` prints it and runs a forward
pass on a 299x299 input.

Nothing is downloaded; weights are random.
"""

import torch
from torch import nn


class BasicConv2d(nn.Sequential):
    """Conv (no bias) + batch norm + ReLU: every convolution of the figures."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
        super().__init__(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                      bias=False),
            # eps=0.001 as in the TensorFlow-slim reference.
            nn.BatchNorm2d(out_channels, eps=0.001),
            nn.ReLU(inplace=True))


def _avg_pool_same():
    # The 3x3 "Avg Pooling" of Fig. 4-6 keeps the grid: stride 1, padded.
    return nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)


class Stem(nn.Module):
    """Fig. 3: 299x299x3 -> 35x35x384."""

    def __init__(self):
        super().__init__()
        self.conv1 = BasicConv2d(3, 32, 3, stride=2)            # 149x149x32 (stride 2, V)
        self.conv2 = BasicConv2d(32, 32, 3)                     # 147x147x32 (V)
        self.conv3 = BasicConv2d(32, 64, 3, padding=1)          # 147x147x64
        # Filter concat: 3x3 MaxPool (stride 2, V) | 3x3 Conv 96 (stride 2, V) -> 73x73x160
        self.pool4 = nn.MaxPool2d(3, stride=2)
        self.conv4 = BasicConv2d(64, 96, 3, stride=2)
        # Filter concat -> 71x71x192:
        #   1x1 Conv 64, 3x3 Conv 96 (V)
        #   1x1 Conv 64, 7x1 Conv 64, 1x7 Conv 64, 3x3 Conv 96 (V)
        self.branch5a = nn.Sequential(
            BasicConv2d(160, 64, 1),
            BasicConv2d(64, 96, 3))
        self.branch5b = nn.Sequential(
            BasicConv2d(160, 64, 1),
            BasicConv2d(64, 64, (7, 1), padding=(3, 0)),
            BasicConv2d(64, 64, (1, 7), padding=(0, 3)),
            BasicConv2d(64, 96, 3))
        # Filter concat: 3x3 Conv 192 (V; stride 2, as the 35x35 output needs) |
        # MaxPool (stride 2, V) -> 35x35x384
        self.conv6 = BasicConv2d(192, 192, 3, stride=2)
        self.pool6 = nn.MaxPool2d(3, stride=2)

    def forward(self, x):
        x = self.conv3(self.conv2(self.conv1(x)))
        x = torch.cat([self.pool4(x), self.conv4(x)], 1)
        x = torch.cat([self.branch5a(x), self.branch5b(x)], 1)
        return torch.cat([self.conv6(x), self.pool6(x)], 1)


class InceptionA(nn.Module):
    """Fig. 4: 35x35x384 -> 35x35x384."""

    def __init__(self, in_channels=384):
        super().__init__()
        # Avg Pooling, 1x1 Conv 96
        self.branch_pool = nn.Sequential(_avg_pool_same(), BasicConv2d(in_channels, 96, 1))
        # 1x1 Conv 96
        self.branch1x1 = BasicConv2d(in_channels, 96, 1)
        # 1x1 Conv 64, 3x3 Conv 96
        self.branch3x3 = nn.Sequential(
            BasicConv2d(in_channels, 64, 1),
            BasicConv2d(64, 96, 3, padding=1))
        # 1x1 Conv 64, 3x3 Conv 96, 3x3 Conv 96
        self.branch3x3dbl = nn.Sequential(
            BasicConv2d(in_channels, 64, 1),
            BasicConv2d(64, 96, 3, padding=1),
            BasicConv2d(96, 96, 3, padding=1))

    def forward(self, x):
        return torch.cat([self.branch_pool(x), self.branch1x1(x), self.branch3x3(x),
                          self.branch3x3dbl(x)], 1)


class ReductionA(nn.Module):
    """Fig. 7: 35x35 -> 17x17; Inception-v4's k=192, l=224, m=256, n=384 (Table 1).

    384 input channels -> 384 (pool) + n + m = 1024.
    """

    def __init__(self, in_channels=384, k=192, l=224, m=256, n=384):  # noqa: E741 (paper's l)
        super().__init__()
        # 3x3 MaxPool (stride 2, V)
        self.branch_pool = nn.MaxPool2d(3, stride=2)
        # 3x3 Conv n (stride 2, V)
        self.branch3x3 = BasicConv2d(in_channels, n, 3, stride=2)
        # 1x1 Conv k, 3x3 Conv l, 3x3 Conv m (stride 2, V)
        self.branch3x3dbl = nn.Sequential(
            BasicConv2d(in_channels, k, 1),
            BasicConv2d(k, l, 3, padding=1),
            BasicConv2d(l, m, 3, stride=2))

    def forward(self, x):
        return torch.cat([self.branch_pool(x), self.branch3x3(x), self.branch3x3dbl(x)], 1)


class InceptionB(nn.Module):
    """Fig. 5: 17x17x1024 -> 17x17x1024."""

    def __init__(self, in_channels=1024):
        super().__init__()
        # Avg Pooling, 1x1 Conv 128
        self.branch_pool = nn.Sequential(_avg_pool_same(), BasicConv2d(in_channels, 128, 1))
        # 1x1 Conv 384
        self.branch1x1 = BasicConv2d(in_channels, 384, 1)
        # 1x1 Conv 192, 1x7 Conv 224, 7x1 Conv 256
        self.branch7x7 = nn.Sequential(
            BasicConv2d(in_channels, 192, 1),
            BasicConv2d(192, 224, (1, 7), padding=(0, 3)),
            BasicConv2d(224, 256, (7, 1), padding=(3, 0)))
        # 1x1 Conv 192, 1x7 Conv 192, 7x1 Conv 224, 1x7 Conv 224, 7x1 Conv 256
        self.branch7x7dbl = nn.Sequential(
            BasicConv2d(in_channels, 192, 1),
            BasicConv2d(192, 192, (1, 7), padding=(0, 3)),
            BasicConv2d(192, 224, (7, 1), padding=(3, 0)),
            BasicConv2d(224, 224, (1, 7), padding=(0, 3)),
            BasicConv2d(224, 256, (7, 1), padding=(3, 0)))

    def forward(self, x):
        return torch.cat([self.branch_pool(x), self.branch1x1(x), self.branch7x7(x),
                          self.branch7x7dbl(x)], 1)


class ReductionB(nn.Module):
    """Fig. 8: 17x17x1024 -> 8x8x1536 (1024 pooled + 192 + 320)."""

    def __init__(self, in_channels=1024):
        super().__init__()
        # 3x3 MaxPool (stride 2, V)
        self.branch_pool = nn.MaxPool2d(3, stride=2)
        # 1x1 Conv 192, 3x3 Conv 192 (stride 2, V)
        self.branch3x3 = nn.Sequential(
            BasicConv2d(in_channels, 192, 1),
            BasicConv2d(192, 192, 3, stride=2))
        # 1x1 Conv 256, 1x7 Conv 256, 7x1 Conv 320, 3x3 Conv 320 (stride 2, V)
        self.branch7x7x3 = nn.Sequential(
            BasicConv2d(in_channels, 256, 1),
            BasicConv2d(256, 256, (1, 7), padding=(0, 3)),
            BasicConv2d(256, 320, (7, 1), padding=(3, 0)),
            BasicConv2d(320, 320, 3, stride=2))

    def forward(self, x):
        return torch.cat([self.branch_pool(x), self.branch3x3(x), self.branch7x7x3(x)], 1)


class InceptionC(nn.Module):
    """Fig. 6: 8x8x1536 -> 8x8x1536 (256 + 256 + 2 x 256 + 2 x 256)."""

    def __init__(self, in_channels=1536):
        super().__init__()
        # Avg Pooling, 1x1 Conv 256
        self.branch_pool = nn.Sequential(_avg_pool_same(), BasicConv2d(in_channels, 256, 1))
        # 1x1 Conv 256
        self.branch1x1 = BasicConv2d(in_channels, 256, 1)
        # 1x1 Conv 384, then two heads: 1x3 Conv 256 | 3x1 Conv 256
        self.branch3x3 = BasicConv2d(in_channels, 384, 1)
        self.branch3x3_1x3 = BasicConv2d(384, 256, (1, 3), padding=(0, 1))
        self.branch3x3_3x1 = BasicConv2d(384, 256, (3, 1), padding=(1, 0))
        # 1x1 Conv 384, 1x3 Conv 448, 3x1 Conv 512, then two heads: 3x1 Conv 256 | 1x3 Conv 256
        self.branch3x3dbl = nn.Sequential(
            BasicConv2d(in_channels, 384, 1),
            BasicConv2d(384, 448, (1, 3), padding=(0, 1)),
            BasicConv2d(448, 512, (3, 1), padding=(1, 0)))
        self.branch3x3dbl_3x1 = BasicConv2d(512, 256, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1x3 = BasicConv2d(512, 256, (1, 3), padding=(0, 1))

    def forward(self, x):
        b3 = self.branch3x3(x)
        bd = self.branch3x3dbl(x)
        return torch.cat([self.branch_pool(x), self.branch1x1(x),
                          self.branch3x3_1x3(b3), self.branch3x3_3x1(b3),
                          self.branch3x3dbl_3x1(bd), self.branch3x3dbl_1x3(bd)], 1)


class InceptionV4(nn.Module):
    """Fig. 9: the whole Inception-v4 network, input 299x299x3."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.features = nn.Sequential(
            Stem(),                                  # Fig. 3 -> 35x35x384
            *[InceptionA() for _ in range(4)],       # 4 x Fig. 4
            ReductionA(),                            # Fig. 7 -> 17x17x1024
            *[InceptionB() for _ in range(7)],       # 7 x Fig. 5
            ReductionB(),                            # Fig. 8 -> 8x8x1536
            *[InceptionC() for _ in range(3)])       # 3 x Fig. 6
        # Fig. 9: Average Pooling (8x8 -> 1x1x1536), Dropout (keep 0.8), Softmax (1000 classes:
        # a linear layer whose logits the loss turns into a softmax).
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.dropout = nn.Dropout(p=0.2)
        self.fc = nn.Linear(1536, num_classes)

    def forward(self, x):
        x = self.avgpool(self.features(x))
        return self.fc(self.dropout(torch.flatten(x, 1)))


def inception_v4(num_classes=1000):
    """Inception-v4 with random weights (PyTorch's default initialisation); nothing downloaded."""
    return InceptionV4(num_classes=num_classes)


if __name__ == "__main__":
    model = inception_v4()
    count = sum(p.numel() for p in model.parameters())
    print(f"inception_v4: {count:,} parameters ({count / 1e6:.2f} M; the widely used "
          f"implementation has about 42.7 M)")
    model.eval()
    with torch.no_grad():
        out = model(torch.randn(1, 3, 299, 299))
    print(f"output {tuple(out.shape)} for a 1x3x299x299 input")
