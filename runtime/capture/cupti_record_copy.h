#pragma once
// CUPTI's activity records (the struct versions of the cupti_activity.h this is built with)
// copied into the plain mirrors of core/io/gpu_activity/cupti_records.h. Header-only use of CUPTI: nothing
// here calls it, so the copy is tested without a GPU (tests/runtime/capture).
#include "core/io/gpu_activity/cupti_records.h"

#include <cupti_activity.h>

namespace spillway::capture {

// The versions read; CUPTI fills the newest layout its header knows, and keeps the older fields
// where they were.
using CuptiKernel = CUpti_ActivityKernel10;
using CuptiMemory = CUpti_ActivityMemory4;
using CuptiMemcpy = CUpti_ActivityMemcpy6;
using CuptiMemset = CUpti_ActivityMemset4;
using CuptiUnifiedMemory = CUpti_ActivityUnifiedMemoryCounter3;
using CuptiDevice = CUpti_ActivityDevice5;
using CuptiMarker = CUpti_ActivityMarker2;
using CuptiApi = CUpti_ActivityAPI;

cupti::KernelRecord copyRecord(const CuptiKernel& r);
cupti::MemoryRecord copyRecord(const CuptiMemory& r);
cupti::MemcpyRecord copyRecord(const CuptiMemcpy& r);
cupti::MemsetRecord copyRecord(const CuptiMemset& r);
cupti::UnifiedMemoryRecord copyRecord(const CuptiUnifiedMemory& r);
cupti::MarkerRecord copyRecord(const CuptiMarker& r);
cupti::ApiRecord copyRecord(const CuptiApi& r);

// Hands one record of any kind to the parser; false for kinds it does not read.
bool addRecord(cupti::RecordParser& parser, const CUpti_Activity* record);

}  // namespace spillway::capture
