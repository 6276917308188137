// The QM key detector (libqm-dsp's GetKeyMode, as the QM Vamp plugin runs it) on one window:
// a benchmark peer of the engine's key, built by bench/lib/qm-peer.ts where Debian's
// libqm-dsp-dev is installed. Never part of the service.
//
//   qm-key <sample rate> < samples   (mono float32, little-endian, on stdin)
//
// Prints one JSON line: {"tonic": 0-11 (C = 0), "mode": 1 major | 0 minor, "share": the share of
// the detector's blocks that named that key}. The detector names a key for every block (the
// plugin's defaults: tuning 440 Hz, a 10-block chroma average, a 10-block median); the window's
// key is the one named for the most blocks, as a reader of the plugin's key changes would take
// the key held longest.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "dsp/keydetection/GetKeyMode.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: qm-key <sample rate> < mono float32 samples\n");
    return 2;
  }
  const int rate = std::atoi(argv[1]);
  if (rate < 8000 || rate > 192000) {
    std::fprintf(stderr, "qm-key: sample rate out of range: %s\n", argv[1]);
    return 2;
  }
  std::vector<float> samples;
  float buffer[4096];
  size_t read;
  while ((read = std::fread(buffer, sizeof(float), 4096, stdin)) > 0) samples.insert(samples.end(), buffer, buffer + read);

  GetKeyMode detector(rate, 440.0f, 10, 10);
  const size_t block = detector.getBlockSize();
  const size_t hop = detector.getHopSize();
  std::vector<double> frame(block);
  // Blocks named for each of the detector's keys: 1-12 C … B major, 13-24 C … B minor (0: none).
  int votes[25] = {0};
  for (size_t start = 0; start + block <= samples.size(); start += hop) {
    for (size_t i = 0; i < block; i++) frame[i] = samples[start + i];
    const int key = detector.process(frame.data());
    if (key >= 1 && key <= 24) votes[key]++;
  }
  int best = 0;
  int total = 0;
  for (int k = 1; k <= 24; k++) {
    total += votes[k];
    if (votes[k] > votes[best]) best = k;
  }
  if (best == 0) {
    std::printf("{\"tonic\":null,\"mode\":null,\"share\":0}\n");
    return 0;
  }
  std::printf("{\"tonic\":%d,\"mode\":%d,\"share\":%.3f}\n", (best - 1) % 12, best > 12 ? 0 : 1, double(votes[best]) / total);
  return 0;
}
