// The HTML report in a real browser: headless Chromium loads it with no console message (the page's
// Content-Security-Policy turns any script or network use into one) and its screenshots, wide and
// narrow, are not blank. Skipped, visibly, where Chromium is not installed (apt-get install chromium).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "report_test_data.h"
#include "reports/html_report.h"
#include "reports/report_data.h"

namespace tuner::report {
namespace {

std::string FindChromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    const std::string command = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(command.c_str()) == 0) return name;
  }
  return "";
}

struct BrowserRun {
  int exit_code = -1;
  std::vector<std::string> console;  // messages the page wrote to the console
};

// Loads `html_path` in headless Chromium and screenshots it to `png_path`.
BrowserRun Screenshot(const std::string& chromium, const std::string& html_path, const std::string& png_path,
                      int width_px, int height_px) {
  const std::string log_path = png_path + ".log";
  // A profile of its own, so that tests run in parallel do not join one browser.
  const std::string command = "timeout 120 " + chromium + " --user-data-dir=" + png_path + ".profile" +
                              " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run"
                              " --enable-logging=stderr --v=0 --window-size=" +
                              std::to_string(width_px) + "," + std::to_string(height_px) + " --screenshot=" + png_path +
                              " file://" + html_path + " >" + log_path + " 2>&1";
  BrowserRun run;
  run.exit_code = std::system(command.c_str());
  std::ifstream log(log_path);
  for (std::string line; std::getline(log, line);)
    if (line.find(":CONSOLE") != std::string::npos) run.console.push_back(line);
  return run;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::uint32_t BigEndian32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

struct Image {
  std::uint32_t width = 0, height = 0, channels = 0;
  std::vector<unsigned char> pixels;  // rows of width * channels bytes
};

// Decodes an 8-bit RGB or RGBA PNG, not interlaced (what Chromium writes); empty image otherwise.
Image DecodePng(const std::string& png) {
  Image image;
  std::string idat;
  for (std::size_t at = 8; at + 8 <= png.size();) {
    const std::uint32_t length = BigEndian32(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      image.width = BigEndian32(png, at + 8);
      image.height = BigEndian32(png, at + 12);
      const int color_type = static_cast<unsigned char>(png[at + 17]);
      if (png[at + 16] != 8 || png[at + 20] != 0 || (color_type != 2 && color_type != 6)) return {};
      image.channels = color_type == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat += png.substr(at + 8, length);
    }
    at += 12 + length;
  }
  const std::size_t stride = std::size_t{image.width} * image.channels;
  std::vector<unsigned char> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK) return {};
  image.pixels.assign(stride * image.height, 0);
  const std::size_t bpp = image.channels;
  for (std::size_t y = 0; y < image.height; ++y) {
    const unsigned char filter = raw[y * (stride + 1)];
    const unsigned char* in = &raw[y * (stride + 1) + 1];
    unsigned char* out = &image.pixels[y * stride];
    const unsigned char* up = y ? &image.pixels[(y - 1) * stride] : nullptr;
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= bpp ? out[x - bpp] : 0, b = up ? up[x] : 0, c = (up && x >= bpp) ? up[x - bpp] : 0;
      int predictor = 0;
      if (filter == 1)
        predictor = a;
      else if (filter == 2)
        predictor = b;
      else if (filter == 3)
        predictor = (a + b) / 2;
      else if (filter == 4) {
        const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
        predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
      }
      out[x] = static_cast<unsigned char>(in[x] + predictor);
    }
  }
  return image;
}

// Share of pixels that differ from the top-left one (the page background), and distinct colours.
void Coverage(const Image& image, double* share, std::size_t* colours) {
  std::size_t differ = 0;
  std::set<std::uint32_t> seen;
  const std::size_t n = std::size_t{image.width} * image.height;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* p = &image.pixels[i * image.channels];
    differ += p[0] != image.pixels[0] || p[1] != image.pixels[1] || p[2] != image.pixels[2];
    if (seen.size() < 100000) seen.insert(std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]);
  }
  *share = n ? static_cast<double>(differ) / static_cast<double>(n) : 0;
  *colours = seen.size();
}

class ReportBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty())
      GTEST_SKIP() << "chromium is not installed (apt-get install chromium); the HTML report was not rendered";
    testing::FillReportDatabase(dir_.File("results.db"));
    db::Store store = db::Store::Open(dir_.File("results.db"), db::OpenMode::kReadOnly);
    std::ofstream(html_path_) << RenderHtml(SelectReportData(store, {}));
  }

  std::string chromium_;
  db::testing::TempDir dir_;
  std::string html_path_ = dir_.File("report.html");
};

TEST_F(ReportBrowserTest, LoadsWithoutConsoleMessagesAndIsNotBlank) {
  for (const auto& [width, height] : {std::pair{1280, 2000}, std::pair{390, 1400}}) {
    const std::string png = dir_.File("shot-" + std::to_string(width) + ".png");
    const BrowserRun run = Screenshot(chromium_, html_path_, png, width, height);
    ASSERT_EQ(run.exit_code, 0) << "chromium failed on " << html_path_;
    for (const std::string& line : run.console) ADD_FAILURE() << "console message at width " << width << ": " << line;
    const Image image = DecodePng(ReadFile(png));
    ASSERT_EQ(image.width, static_cast<std::uint32_t>(width)) << "no readable screenshot " << png;
    double share = 0;
    std::size_t colours = 0;
    Coverage(image, &share, &colours);
    EXPECT_GT(share, 0.02) << "the screenshot is almost blank at width " << width;
    EXPECT_GT(colours, 20u) << "the screenshot has almost no colours at width " << width;
  }
}

// The check above would see a broken page: a script error and a blocked script both reach the log.
TEST_F(ReportBrowserTest, ConsoleMessagesAreDetected) {
  const std::string bad = dir_.File("bad.html");
  std::ofstream(bad) << "<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script></body></html>";
  const BrowserRun run = Screenshot(chromium_, bad, dir_.File("bad.png"), 400, 300);
  ASSERT_EQ(run.console.size(), 1u);
  EXPECT_NE(run.console[0].find("undefinedFunction"), std::string::npos);
  const Image blank = DecodePng(ReadFile(dir_.File("bad.png")));
  double share = 1;
  std::size_t colours = 0;
  Coverage(blank, &share, &colours);
  EXPECT_LT(share, 0.02);  // one word on a white page counts as blank
}

}  // namespace
}  // namespace tuner::report
