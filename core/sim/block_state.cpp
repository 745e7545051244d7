#include "core/sim/block_state.h"

#include <stdexcept>

namespace spillway::sim {

BlockTable::BlockTable(const std::vector<Bytes>& tensorBytes, Bytes blockSize) {
    if (blockSize <= 0) throw std::invalid_argument("block size must be positive");
    first_.reserve(tensorBytes.size() + 1);
    for (std::size_t t = 0; t < tensorBytes.size(); ++t) {
        first_.push_back(static_cast<std::int32_t>(blocks_.size()));
        Bytes left = tensorBytes[t];
        while (left > 0) {
            Block b;
            b.bytes = left < blockSize ? left : blockSize;
            b.tensor = static_cast<std::int32_t>(t);
            blocks_.push_back(b);
            left -= b.bytes;
        }
    }
    first_.push_back(static_cast<std::int32_t>(blocks_.size()));
}

void BlockTable::unlink(std::int32_t b) {
    Block& x = blocks_[b];
    if (!x.inLru) return;
    if (x.lruPrev >= 0) blocks_[x.lruPrev].lruNext = x.lruNext; else head_ = x.lruNext;
    if (x.lruNext >= 0) blocks_[x.lruNext].lruPrev = x.lruPrev; else tail_ = x.lruPrev;
    x.lruPrev = x.lruNext = -1;
    x.inLru = false;
}

void BlockTable::touch(std::int32_t b) {
    unlink(b);
    Block& x = blocks_[b];
    x.lruPrev = tail_;
    x.lruNext = -1;
    if (tail_ >= 0) blocks_[tail_].lruNext = b; else head_ = b;
    tail_ = b;
    x.inLru = true;
}

}  // namespace spillway::sim
