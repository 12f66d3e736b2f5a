// MSCCL-IR XML, the form the MSCCL runtime reads (Azure/msccl-executor-nccl, msccl_parser.cc) and msccl-tools,
// TACCL and TE-CCL write:
//
//   <algo name="ring" proto="Simple" nchannels="1" nchunksperloop="8" ngpus="8" coll="allgather" inplace="0">
//     <gpu id="0" i_chunks="1" o_chunks="8" s_chunks="0">
//       <tb id="0" send="1" recv="7" chan="0">
//         <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="-1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
//
// Every attribute the runtime requires is required here, numbers are decimal integers in range, and an element the
// runtime would skip (anything but algo, gpu, tb, step) is refused rather than ignored, so a typo cannot drop part of
// an algorithm. Errors are format_error with the element's path and line, e.g.
// "algo/gpu[id=2]/tb[id=0]/step[3] (line 41): attribute 'type' is 'sendd'; expected s, r, rcs, rrs, rrc, rrcs, cpy,
// re or nop". Whether the algorithm is correct is checkers/msccl_check's question.
#pragma once

#include <iosfwd>
#include <string_view>

#include "dancecard/core/collective/msccl.hpp"
#include "dancecard/formats/format_error.hpp"

namespace dancecard::collective {

/// Throws format_error (above). Limits: at most 65,536 GPUs, 2^24 chunks per buffer, 2^20 chunks per step.
msccl_program read_msccl_xml(std::string_view text);
/// Writes the program in the runtime's form (attributes in msccl-tools' order, one element per line).
void write_msccl_xml(std::ostream& out, const msccl_program& program);

}  // namespace dancecard::collective
