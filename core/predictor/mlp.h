#pragma once
// TENSILE's operator-time model (section 4.3): "a 3 layers MLP", here inputs -> tanh hidden ->
// tanh hidden -> one linear output, trained by Adam on the mean squared error. Small and plain
// C++ (the project has no tensor library); deterministic: the same seed, data and options give
// bit-identical weights (our own uniform draw, not std::uniform_real_distribution, whose
// output is implementation-defined).
#include <cstdint>
#include <vector>

namespace spillway::predictor {

struct MlpLayer {
    int inputs = 0;
    int outputs = 0;
    std::vector<double> weights;  // row-major: outputs x inputs
    std::vector<double> bias;     // outputs
};

struct Mlp {
    std::vector<MlpLayer> layers;  // 3: hidden, hidden, output (1 unit, linear)

    int inputCount() const { return layers.empty() ? 0 : layers.front().inputs; }
    double predict(const std::vector<double>& x) const;
};

struct MlpTrainOptions {
    int hidden = 16;
    int epochs = 300;
    int batch = 32;
    double learningRate = 0.01;  // Adam's step, decayed linearly to a tenth by the last epoch
    std::uint64_t seed = 1;
};

// Rows of `x` (equal length) against `y`; inputs and target should be standardised.
Mlp trainMlp(const std::vector<std::vector<double>>& x, const std::vector<double>& y, const MlpTrainOptions& options);

// 1 - residual sum of squares / total sum of squares (0 when the truth is constant and missed,
// 1 when it is constant and hit).
double rSquared(const std::vector<double>& truth, const std::vector<double>& predicted);

}  // namespace spillway::predictor
