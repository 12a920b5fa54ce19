// The [pipeline] table of a description: read strictly, checked at the sizes, planned per candidate
// (no GPU: the worker's side is host_pipeline_gpu_test.cpp).
#include "template/pipeline_spec.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "db_test_util.h"
#include "npy.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::Replaced;

const char* kPipeline = R"toml(name = "scale"
kernel = "scale"
[[size]]
name = "N"
default = 1000
[[param]]
name = "BLOCK"
values = [128, 256]
[[param]]
name = "STREAMS"
values = [1, 4]
host = true
[[param]]
name = "CHUNK"
values = [300, 1000]
host = true
[[param]]
name = "MEMORY"
values = [0, 1]
labels = ["pageable", "pinned"]
host = true
[launch]
grid = ["cdiv(N, BLOCK)"]
block = ["BLOCK"]
[[arg]]
name = "out"
type = "float"
length = "2 * N"
output = true
[[arg]]
name = "in"
type = "float"
length = "2 * N"
init = "random"
[[arg]]
name = "table"
type = "float"
length = "16"
init = "random"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
kernel = "scale_reference"
[work]
bytes = "16 * N"
[pipeline]
size = "N"
chunk = "CHUNK"
streams = "STREAMS"
memory = "MEMORY"
chunked = ["out", "in"]
)toml";

const char* kScaleSource =
    "extern \"C\" __global__ void scale(float* o, const float* i, const float* t, int n) {}\n"
    "extern \"C\" __global__ void scale_reference(float* o, const float* i, const float* t, int n) {}\n";

TemplateSpec LoadScale(const TempDir& dir, const std::string& description) {
  return LoadTemplateFile(testing::WriteTemplateFiles(dir.File("t"), "scale", description, kScaleSource));
}

std::string ScaleLoadError(const std::string& description) {
  TempDir dir;
  return testing::LoadErrorOf(testing::WriteTemplateFiles(dir.File("t"), "scale", description, kScaleSource));
}

Variables Candidate(long long n, long long block, long long streams, long long chunk, long long memory) {
  return {{"N", n}, {"BLOCK", block}, {"STREAMS", streams}, {"CHUNK", chunk}, {"MEMORY", memory}};
}

TEST(PipelineSpec, ReadsTheTableAndTheHostParameters) {
  TempDir dir;
  const TemplateSpec spec = LoadScale(dir, kPipeline);
  EXPECT_TRUE(spec.pipeline.enabled);
  EXPECT_EQ(spec.pipeline.size, "N");
  EXPECT_EQ(spec.pipeline.chunk, "CHUNK");
  EXPECT_EQ(spec.pipeline.order, "0");  // depth-first unless said
  EXPECT_EQ(spec.pipeline.chunked, (std::vector<std::string>{"out", "in"}));
  EXPECT_FALSE(spec.params[0].host);
  EXPECT_TRUE(spec.params[1].host);
  const std::string plain = testing::WriteTemplateFiles(dir.File("plain"), "small", testing::kSmallDescription);
  EXPECT_FALSE(LoadTemplateFile(plain).pipeline.enabled);
}

TEST(PipelineSpec, PlansEveryChunkWithTheChunkAsTheSize) {
  TempDir dir;
  const TemplateSpec spec = LoadScale(dir, kPipeline);
  const PipelineRun run = PlanPipeline(spec, Candidate(1000, 128, 4, 300, 1));
  ASSERT_TRUE(run.enabled);
  EXPECT_EQ(run.streams, 4);
  EXPECT_EQ(run.chunk_items, 300);
  EXPECT_EQ(run.Chunks(), 4);
  EXPECT_EQ(run.memory, HostMemory::kPinned);
  EXPECT_EQ(run.order, IssueOrder::kDepthFirst);
  ASSERT_EQ(run.chunked.size(), 2u);
  EXPECT_EQ(run.chunked[1].name, "in");
  EXPECT_EQ(run.chunked[1].per_item, 2);
  EXPECT_EQ(run.chunk.geometry.grid[0], 3);  // cdiv(300, 128)
  EXPECT_EQ(run.tail.geometry.grid[0], 1);   // the last 100
  EXPECT_EQ(run.chunk.scalars, (std::vector<double>{0, 0, 0, 300}));
  EXPECT_EQ(run.tail.scalars, (std::vector<double>{0, 0, 0, 100}));
  EXPECT_EQ(run.Describe(), "4 streams, 4 chunks of 300, pinned, depth_first");
  const PipelineRun whole = PlanPipeline(spec, Candidate(1000, 256, 1, 5000, 0));
  EXPECT_EQ(whole.Chunks(), 1);  // a chunk larger than the problem is the whole problem
  EXPECT_EQ(whole.chunk_items, 1000);
  EXPECT_EQ(whole.Describe(), "1 stream, 1 chunk of 1000, pageable, depth_first");
}

TEST(PipelineSpec, HostParametersAreNoMacrosOfTheKernel) {
  TempDir dir;
  const TemplateSpec spec = LoadScale(dir, kPipeline);
  const ParamValues all = {{"BLOCK", 128}, {"STREAMS", 4}, {"CHUNK", 300}, {"MEMORY", 1}};
  EXPECT_EQ(KernelParams(spec, all), (ParamValues{{"BLOCK", 128}}));
}

TEST(PipelineSpec, ValuesOutOfRangeMakeACandidateInvalid) {
  TempDir dir;
  const TemplateSpec spec = LoadScale(dir, Replaced(kPipeline, "memory = \"MEMORY\"", "memory = \"MEMORY + 3\""));
  EXPECT_NO_THROW(PlanPipeline(spec, Candidate(1000, 128, 1, 300, 0)));
  try {
    PlanPipeline(spec, Candidate(1000, 128, 1, 300, 1));
    FAIL() << "memory 4 was planned";
  } catch (const ExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("gives 4: memory (0 pageable"), std::string::npos) << e.what();
  }
  EXPECT_THROW(PlanPipeline(spec, Candidate(1000, 128, 0, 300, 0)), ExpressionError);    // no stream
  EXPECT_THROW(PlanPipeline(spec, Candidate(1000, 128, 65, 300, 0)), ExpressionError);   // too many
  EXPECT_THROW(PlanPipeline(spec, Candidate(1000, 128, 1, 0, 0)), ExpressionError);      // empty chunks
  EXPECT_THROW(PlanPipeline(spec, Candidate(1000000, 128, 1, 10, 0)), ExpressionError);  // 100,000 chunks
}

TEST(PipelineSpec, MalformedTablesAreRefusedNamingTheField) {
  const struct {
    std::string from, to, error;
  } cases[] = {
      {"size = \"N\"", "size = \"M\"", "pipeline.size: 'M' is not one of the template's sizes"},
      {"chunked = [\"out\", \"in\"]", "chunked = [\"out\", \"n\"]", "pipeline.chunked: 'n' is not a buffer argument"},
      {"chunked = [\"out\", \"in\"]", "chunked = [\"out\", \"out\"]", "pipeline.chunked: 'out' is listed twice"},
      {"chunked = [\"out\", \"in\"]", "chunked = []", "pipeline.chunked: must name at least one buffer argument"},
      {"chunked = [\"out\", \"in\"]\n", "", "pipeline.chunked: is required"},
      {"streams = \"STREAMS\"", "stream = \"STREAMS\"", "pipeline.stream: unknown key (did you mean `streams`?)"},
      {"streams = \"STREAMS\"", "streams = \"STREAM\"", "pipeline.streams"},
      {"length = \"2 * N\"\ninit", "length = \"2 * N + 1\"\ninit",
       "pipeline.chunked: 'in' has 2001 elements ('2 * N + 1'), not a whole number per element of N"},
      {"streams = \"STREAMS\"", "streams = \"0\"",
       "pipeline: in expression '0': gives 0: the number of streams must be 1 to 64"},
  };
  for (const auto& c : cases) {
    const std::string error = ScaleLoadError(Replaced(kPipeline, c.from, c.to));
    EXPECT_NE(error.find(c.error), std::string::npos) << c.to << "\n" << error;
  }
}

TEST(PipelineSpec, AnOutputFromAFileIsRefused) {
  TempDir dir;
  const std::vector<float> contents(2000, 1.0f);
  std::filesystem::create_directories(dir.File("t"));
  npy::WriteFile(dir.File("t/out.npy"), "<f4", contents.data(), contents.size());
  try {
    LoadScale(dir, Replaced(kPipeline, "output = true", "output = true\ninit = \"file:out.npy\""));
    FAIL() << "loaded";
  } catch (const TemplateError& e) {
    EXPECT_NE(std::string(e.what()).find("arg[0].init: an output of a pipeline is initialised with 'poison' or 'zero'"),
              std::string::npos)
        << e.what();
  }
}

TEST(PipelineSpec, AHostParameterNeedsAPipeline) {
  const std::string description = Replaced(kPipeline, "[pipeline]", "[not_a_pipeline]");
  const std::string without = std::string(kPipeline).substr(0, std::string(kPipeline).find("[pipeline]"));
  const std::string error = ScaleLoadError(without);
  EXPECT_NE(
      error.find("scale.toml:12: param[1].host: 'STREAMS' is a host parameter, but the template has no [pipeline]"),
      std::string::npos)
      << error;
  EXPECT_NE(ScaleLoadError(description).find("not_a_pipeline: unknown key"), std::string::npos);
}

}  // namespace
}  // namespace tuner
