#include "core/experiment/discard_paper.h"

namespace spillway::discard {

namespace {

const std::array<PaperMicro, 3> kPaperMicro{{
    {"fir", "FIR", "table3", "table4", "Table 3: normalised runtime of FIR", "Table 4: PCIe traffic of FIR",
     {{{1.00, 0.51, 0.62, 0.71}, {1.01, 0.52, 0.65, 0.71}}},
     {{{1.00, 0.52, 0.62, 0.72}, {1.00, 0.52, 0.66, 0.71}}},
     {5.66, 11.44, 13.38, 14.34}, {5.66, 5.88, 7.81, 8.78}, {5.66, 5.88, 7.81, 8.78}},
    {"radix-sort", "Radix-sort", "table5", "table6", "Table 5: normalised runtime of Radix-sort",
     "Table 6: PCIe traffic of Radix-sort",
     {{{1.21, 0.87, 0.95, 0.97}, {1.28, 0.83, 0.93, 0.97}}},
     {{{1.00, 0.87, 0.95, 0.97}, {1.02, 0.83, 0.92, 0.99}}},
     {5.00, 300.80, 345.40, 356.85}, {5.00, 244.93, 315.50, 339.76}, {5.00, 244.92, 315.52, 339.76}},
    {"hash-join", "Hash-join", "table7", "table8", "Table 7: normalised runtime of Hash-join",
     "Table 8: PCIe traffic of Hash-join",
     {{{1.05, 0.24, 0.51, 0.86}, {1.09, 0.31, 0.54, 0.89}}},
     {{{1.02, 0.24, 0.51, 0.86}, {1.04, 0.31, 0.54, 0.88}}},
     {2.98, 34.62, 36.42, 58.23}, {2.98, 4.89, 16.19, 46.61}, {2.98, 4.89, 16.19, 46.44}},
}};

const std::array<PaperTable1, 5> kPaperTable1{{{40, 29, 2, 29, 2, 16, 112},
                                               {50, 29, 2, 29, 2, 17, 118},
                                               {60, 25, 45, 28, 10, 17, 148},
                                               {70, 22, 104, 26, 34, 19, 113},
                                               {80, 20, 152, 24, 58, 18, 150}}};

}  // namespace

const std::array<PaperMicro, 3>& paperMicro() { return kPaperMicro; }

const PaperTable1* paperTable1(std::int64_t batch) {
    for (const auto& row : kPaperTable1)
        if (row.batch == batch) return &row;
    return nullptr;
}

}  // namespace spillway::discard
