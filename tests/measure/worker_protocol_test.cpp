// The worker protocol: every request and reply survives its round trip through the wire with
// every field, and what is not a message of the protocol is refused.
#include "measure/worker_protocol.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tuner {
namespace {

// Every field differs from its default, so a field left out of either direction shows.
KernelLaunch SomeLaunch(const std::string& kernel) {
  KernelLaunch launch;
  launch.cubin_path = "/cache/" + kernel + ".cubin";
  launch.kernel = kernel + "_lowered";
  launch.geometry.grid = {4, 5, 6};
  launch.geometry.block = {32, 2, 1};
  launch.geometry.shared_bytes = 4096;
  launch.args = {{"in", ScalarType::kDouble, 0}, {"", ScalarType::kUint64, 12345678901.0}};
  return launch;
}

// A pipeline's run with every field set.
PipelineRun SomeRun() {
  PipelineRun run;
  run.enabled = true;
  run.streams = 4;
  run.items = 1000;
  run.chunk_items = 300;
  run.memory = HostMemory::kManagedPrefetch;
  run.order = IssueOrder::kBreadthFirst;
  run.chunked = {{"out", 1}, {"in", 2}};
  run.chunk.geometry = {{3, 1, 1}, {128, 1, 1}, 512};
  run.chunk.scalars = {0, 0, 0, 300};
  run.tail.geometry = {{1, 1, 1}, {128, 1, 1}, 256};
  run.tail.scalars = {0, 0, 0, 100};
  return run;
}

void ExpectSameChunk(const ChunkLaunch& a, const ChunkLaunch& b) {
  EXPECT_EQ(a.geometry.grid, b.geometry.grid);
  EXPECT_EQ(a.geometry.block, b.geometry.block);
  EXPECT_EQ(a.geometry.shared_bytes, b.geometry.shared_bytes);
  EXPECT_EQ(a.scalars, b.scalars);
}

void ExpectSameRun(const PipelineRun& a, const PipelineRun& b) {
  EXPECT_EQ(a.enabled, b.enabled);
  if (!a.enabled) return;
  EXPECT_EQ(a.streams, b.streams);
  EXPECT_EQ(a.items, b.items);
  EXPECT_EQ(a.chunk_items, b.chunk_items);
  EXPECT_EQ(a.memory, b.memory);
  EXPECT_EQ(a.order, b.order);
  ASSERT_EQ(a.chunked.size(), b.chunked.size());
  for (std::size_t i = 0; i < a.chunked.size(); ++i) {
    EXPECT_EQ(a.chunked[i].name, b.chunked[i].name);
    EXPECT_EQ(a.chunked[i].per_item, b.chunked[i].per_item);
  }
  ExpectSameChunk(a.chunk, b.chunk);
  ExpectSameChunk(a.tail, b.tail);
}

void ExpectSameLaunch(const KernelLaunch& a, const KernelLaunch& b) {
  EXPECT_EQ(a.cubin_path, b.cubin_path);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.geometry.grid, b.geometry.grid);
  EXPECT_EQ(a.geometry.block, b.geometry.block);
  EXPECT_EQ(a.geometry.shared_bytes, b.geometry.shared_bytes);
  ASSERT_EQ(a.args.size(), b.args.size());
  for (std::size_t i = 0; i < a.args.size(); ++i) {
    EXPECT_EQ(a.args[i].buffer, b.args[i].buffer);
    EXPECT_EQ(a.args[i].type, b.args[i].type);
    EXPECT_EQ(a.args[i].value, b.args[i].value);
  }
  ExpectSameRun(a.pipeline, b.pipeline);
}

void ExpectSameStats(const SampleStats& a, const SampleStats& b) {
  EXPECT_EQ(a.median, b.median);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.spread, b.spread);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.launches_per_sample, b.launches_per_sample);
}

// The request as the worker reads what the supervisor sends.
template <class Request>
Request RoundTrip(const Request& request) {
  const WorkerRequest read = ParseRequest(ToJson(request).dump());
  EXPECT_TRUE(std::holds_alternative<Request>(read)) << Request::kOp;
  return std::get<Request>(read);
}

// The reply as the supervisor reads what the worker writes.
template <class Body>
Body RoundTripReply(const Body& body) {
  const WorkerReply<Body> reply = ReadReply<Body>(nlohmann::json::parse(ReplyLine(body, 1.25)));
  EXPECT_EQ(reply.worker_s, 1.25);
  EXPECT_EQ(reply.error, "");
  EXPECT_TRUE(reply.body.has_value());
  return reply.body.value_or(Body{});
}

TEST(WorkerProtocol, SetupRoundTrips) {
  SetupRequest setup;
  setup.gpu = 3;
  setup.uuid = "GPU-5c1f0e8a";
  setup.seed = 18446744073709551557ull;
  setup.buffers = {{"a", ScalarType::kInt, 7, BufferInit::kFile, false, "/data/a.npy", ""},
                   {"out", ScalarType::kFloat, 1LL << 33, BufferInit::kPoison, true, "", "/data/out.npy"}};
  setup.symbols = {{"table", "a"}};
  setup.reference = SomeLaunch("reference");
  setup.atol = 1e-6;
  setup.rtol = 2e-5;
  setup.timing = TimingMode::kGraph;
  setup.batch_launches = 256;
  const SetupRequest read = RoundTrip(setup);
  EXPECT_EQ(read.gpu, 3);
  EXPECT_EQ(read.uuid, "GPU-5c1f0e8a");
  EXPECT_EQ(read.seed, setup.seed);
  ASSERT_EQ(read.buffers.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(read.buffers[i].name, setup.buffers[i].name);
    EXPECT_EQ(read.buffers[i].type, setup.buffers[i].type);
    EXPECT_EQ(read.buffers[i].count, setup.buffers[i].count);
    EXPECT_EQ(read.buffers[i].init, setup.buffers[i].init);
    EXPECT_EQ(read.buffers[i].output, setup.buffers[i].output);
    EXPECT_EQ(read.buffers[i].file, setup.buffers[i].file);
    EXPECT_EQ(read.buffers[i].expected, setup.buffers[i].expected);
  }
  ASSERT_EQ(read.symbols.size(), 1u);
  EXPECT_EQ(read.symbols[0].name, "table");
  EXPECT_EQ(read.symbols[0].from, "a");
  ASSERT_TRUE(read.reference.has_value());
  ExpectSameLaunch(*read.reference, *setup.reference);
  EXPECT_EQ(read.atol, 1e-6);
  EXPECT_EQ(read.rtol, 2e-5);
  EXPECT_EQ(read.timing, TimingMode::kGraph);
  EXPECT_EQ(read.batch_launches, 256);
}

TEST(WorkerProtocol, ASetupWithAnUnknownTimingModeIsAProtocolError) {
  nlohmann::json request = ToJson(SetupRequest{});
  request["timing"] = "warm";
  EXPECT_THROW(ParseRequest(request.dump()), ProtocolError);
}

TEST(WorkerProtocol, ASetupWithoutAReferenceKernelRoundTrips) {
  SetupRequest setup;
  setup.buffers = {{"out", ScalarType::kFloat, 4, BufferInit::kZero, true, "", "/data/out.npy"}};
  EXPECT_FALSE(RoundTrip(setup).reference.has_value());
}

TEST(WorkerProtocol, MeasureAndInterleaveRoundTrip) {
  MeasureRequest measure;
  measure.launch = SomeLaunch("k");
  measure.best_ms = 0.125;
  measure.estimate_only = true;
  const MeasureRequest read = RoundTrip(measure);
  ExpectSameLaunch(read.launch, measure.launch);
  EXPECT_EQ(read.best_ms, 0.125);
  EXPECT_TRUE(read.estimate_only);

  InterleaveRequest interleave;
  interleave.launches = {SomeLaunch("a"), SomeLaunch("b")};
  interleave.rounds = 7;
  const InterleaveRequest turns = RoundTrip(interleave);
  ASSERT_EQ(turns.launches.size(), 2u);
  ExpectSameLaunch(turns.launches[1], interleave.launches[1]);
  EXPECT_EQ(turns.rounds, 7);
}

// One JSON form of a geometry: the worker is sent the text the store keeps.
TEST(WorkerProtocol, ALaunchsGeometryTravelsAsItsStoredText) {
  MeasureRequest measure;
  measure.launch = SomeLaunch("k");
  measure.launch.pipeline = SomeRun();
  const nlohmann::json launch = ToJson(measure).at("launch");
  EXPECT_EQ(launch.at("geometry").dump(), measure.launch.geometry.Json());
  const nlohmann::json chunk = launch.at("pipeline").at("chunk");
  EXPECT_EQ(chunk.at("geometry").dump(), measure.launch.pipeline.chunk.geometry.Json());
}

TEST(WorkerProtocol, APipelineCandidatesRunRoundTrips) {
  MeasureRequest measure;
  measure.launch = SomeLaunch("k");
  measure.launch.pipeline = SomeRun();
  ExpectSameLaunch(RoundTrip(measure).launch, measure.launch);
  PipelineStagesRequest stages;
  stages.launch = measure.launch;
  ExpectSameLaunch(RoundTrip(stages).launch, measure.launch);
  EXPECT_FALSE(RoundTrip(MeasureRequest{}).launch.pipeline.enabled);  // a kernel launched whole
}

TEST(WorkerProtocol, AProfileRequestRoundTripsWithEveryCandidate) {
  ProfileRequest profile;
  profile.candidates = {{SomeLaunch("a"), false, true, 0.75}, {SomeLaunch("b"), true, false, 2.5}};
  const ProfileRequest read = RoundTrip(profile);
  ASSERT_EQ(read.candidates.size(), 2u);
  ExpectSameLaunch(read.candidates[0].launch, profile.candidates[0].launch);
  EXPECT_FALSE(read.candidates[0].counters);
  EXPECT_TRUE(read.candidates[0].energy);
  EXPECT_EQ(read.candidates[0].launch_ms, 0.75);
  EXPECT_TRUE(read.candidates[1].counters);
  EXPECT_FALSE(read.candidates[1].energy);
  EXPECT_EQ(read.candidates[1].launch_ms, 2.5);
  RoundTrip(PrepareProfilerRequest{});
}

TEST(WorkerProtocol, RequestsWithoutFieldsAndTheCopyRoundTrip) {
  RoundTrip(WarmUpRequest{});
  EXPECT_EQ(RoundTrip(CopyBandwidthRequest{268435456}).bytes, 268435456u);
}

TEST(WorkerProtocol, RepliesRoundTrip) {
  MeasureReply measured;
  measured.status = CandidateStatus::kOk;
  measured.reason = "sampled briefly";
  measured.regs_per_thread = 40;
  measured.static_smem_bytes = 1024;
  measured.time_ms = {1.5, 1.25, 2.5, 0.02, 17, 400};  // a graph of 400 launches a sample
  measured.throttle = {34, 2, ""};
  const MeasureReply read = RoundTripReply(measured);
  EXPECT_EQ(read.throttle.reads, 34);
  EXPECT_EQ(read.throttle.discarded, 2);
  EXPECT_EQ(read.status, CandidateStatus::kOk);
  EXPECT_EQ(read.reason, "sampled briefly");
  EXPECT_EQ(read.regs_per_thread, 40);
  EXPECT_EQ(read.static_smem_bytes, 1024);
  ExpectSameStats(read.time_ms, measured.time_ms);

  const InterleaveReply turns =
      RoundTripReply(InterleaveReply{{{1, 0.5, 2, 0.1, 10}, {3, 2.5, 4, 0.2, 10, 64}}, {0, 0, "no NVML"}});
  ASSERT_EQ(turns.time_ms.size(), 2u);
  EXPECT_EQ(turns.throttle.unavailable, "no NVML");
  ExpectSameStats(turns.time_ms[1], {3, 2.5, 4, 0.2, 10, 64});

  EXPECT_EQ(RoundTripReply(CopyBandwidthReply{3012.5}).gbps, 3012.5);
  RoundTripReply(Done{});

  const StageTimes stages = RoundTripReply(StageTimes{4.9, 5.75, 4.875});
  EXPECT_EQ(stages.h2d_ms, 4.9);
  EXPECT_EQ(stages.kernel_ms, 5.75);
  EXPECT_EQ(stages.d2h_ms, 4.875);
}

TEST(WorkerProtocol, AProfileReplyRoundTripsWithEachResultAndWhereTheTimeWent) {
  ProfileReply reply;
  ProfileResult both;
  both.counters_json = R"({"passes":2,"stalls":[["long_scoreboard",1.5]]})";
  both.energy = EnergyUse{0.1387, 412.5, 0.33};
  ProfileResult refused;
  refused.counters_unavailable = "CUPTI: insufficient privileges";
  refused.energy_unavailable = "NVML: no energy counter";
  reply.results = {both, refused};
  reply.timing_ms = {{"counters", 120.5}, {"counters_setup", 3.25}, {"energy", 800}};
  const ProfileReply read = RoundTripReply(reply);
  ASSERT_EQ(read.results.size(), 2u);
  EXPECT_EQ(read.results[0].counters_json, both.counters_json);
  ASSERT_TRUE(read.results[0].energy.has_value());
  EXPECT_EQ(read.results[0].energy->joules_per_launch, 0.1387);
  EXPECT_EQ(read.results[0].energy->power_w, 412.5);
  EXPECT_EQ(read.results[0].energy->launch_ms, 0.33);
  EXPECT_EQ(read.results[0].counters_unavailable, "");
  EXPECT_EQ(read.results[1].counters_json, "");
  EXPECT_FALSE(read.results[1].energy.has_value());
  EXPECT_EQ(read.results[1].counters_unavailable, "CUPTI: insufficient privileges");
  EXPECT_EQ(read.results[1].energy_unavailable, "NVML: no energy counter");
  EXPECT_EQ(read.timing_ms, reply.timing_ms);
}

TEST(WorkerProtocol, AFailureCarriesTheErrorAndTheWorkersSeconds) {
  const auto reply =
      ReadReply<MeasureReply>(nlohmann::json::parse(FailureLine("cannot read the compiled kernel x", 0.5)));
  EXPECT_FALSE(reply.body.has_value());
  EXPECT_EQ(reply.error, "cannot read the compiled kernel x");
  EXPECT_EQ(reply.worker_s, 0.5);
}

TEST(WorkerProtocol, WhatIsNoRequestIsRefusedWithItsReason) {
  const auto message = [](const std::string& line) {
    try {
      ParseRequest(line);
    } catch (const ProtocolError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(R"({"op": "no_such_request"})"), "unknown request 'no_such_request'");
  EXPECT_NE(message("not json").find("malformed request"), std::string::npos);
  EXPECT_NE(message(R"({"op": "measure", "best_ms": 1})").find("malformed request"), std::string::npos);
  EXPECT_NE(message(R"({"bytes": 1})").find("malformed request"), std::string::npos);
}

TEST(WorkerProtocol, AReplyWithoutItsFieldsIsAProtocolError) {
  EXPECT_THROW(ReadReply<MeasureReply>(nlohmann::json{{"ok", true}, {"worker_s", 0}}), ProtocolError);
  EXPECT_THROW(ReadReply<Done>(nlohmann::json{{"ok", true}}), ProtocolError);  // every reply has its seconds
}

// The status travels as its stored text; a reply with a status the supervisor does not know is
// refused, naming it, never taken for another.
TEST(WorkerProtocol, AMeasureReplyCarriesTheStatusTextAndAnUnknownOneIsAProtocolError) {
  MeasureReply wrong;
  wrong.status = CandidateStatus::kWrongResult;
  nlohmann::json line = nlohmann::json::parse(ReplyLine(wrong, 0.5));
  EXPECT_EQ(line.at("status"), "wrong_result");
  EXPECT_EQ(ReadReply<MeasureReply>(line).body->status, CandidateStatus::kWrongResult);
  line["status"] = "so-so";
  try {
    ReadReply<MeasureReply>(line);
    ADD_FAILURE() << "a reply with status 'so-so' was read";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown candidate status \"so-so\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tuner
