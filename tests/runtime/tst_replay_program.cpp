// What the replay program makes of a plan, worked out by hand on the chain profile: side-stream
// order and anchors, link times, where a prefetch reads from, arena ranges, and the errors for
// plans that do not fit their profile.
#include "replay_test_support.h"

#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <QtTest>

using namespace spillway;
using namespace replay_test;

namespace {

template <typename F>
QString errorOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestReplayProgram : public QObject {
    Q_OBJECT
private slots:
    void directivesAreIssuedInAnchorOrder() {
        const Profile profile = chainProfile();
        // Listed out of order; order runs k1 first, so "before k0" comes after "after k1".
        const ExportedPlan plan = exported(profile,
                                           {directive(DirectiveKind::Prefetch, 0, 10),                         // before run 1
                                            directive(DirectiveKind::PreEvict, 1, 11, Tier::Host, true),       // after run 0
                                            directive(DirectiveKind::Discard, 1, 12),                          // before run 0
                                            directive(DirectiveKind::Free, 3, 14, Tier::Gpu, true)},           // after run 3
                                           {1, 0, 2, 3});
        const replay::ReplayProgram p = replay::buildReplayProgram(profile, plan);
        QCOMPARE(p.directives.size(), std::size_t(4));
        const std::int64_t expected[] = {2, 1, 0, 3};
        for (std::size_t j = 0; j < 4; ++j) QCOMPARE(p.directives[j].planIndex, expected[j]);
        QCOMPARE(p.directives[0].anchorRunIndex, std::int64_t(0));
        QCOMPARE(p.directives[2].anchorRunIndex, std::int64_t(1));
        // anchorBegin: key 0 (before run 0) holds directive 0, key 1 (after run 0) directive 1,
        // key 2 (before run 1) directive 2, key 7 (after run 3) directive 3.
        QCOMPARE(p.anchorBegin.size(), std::size_t(9));
        const std::size_t begins[] = {0, 1, 2, 3, 3, 3, 3, 3, 4};
        for (std::size_t a = 0; a < 9; ++a) QCOMPARE(p.anchorBegin[a], begins[a]);
    }

    void linkTimesComeFromThePlansHardware() {
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                     directive(DirectiveKind::Prefetch, 2, 10),
                                                     directive(DirectiveKind::Discard, 2, 10, Tier::Gpu, true),
                                                     directive(DirectiveKind::Prefetch, 3, 10)});
        const replay::ReplayProgram p = replay::buildReplayProgram(profile, plan);
        // 2 MB at 1 GB/s = 2 ms, plus 10 us latency, each way.
        QCOMPARE(p.directives[0].modelledDuration, kWeightPrefetchNs);
        QCOMPARE(p.directives[0].modelledPath, std::string("GPU->host"));
        QVERIFY(p.directives[1].source == Tier::Host);
        QVERIFY(!p.directives[1].afterDrop);
        QCOMPARE(p.directives[1].modelledDuration, kWeightPrefetchNs);
        // Eager discard: one 2 MiB block, 4 us by the default cost curve (UVM Discard, Table 2).
        QCOMPARE(p.directives[2].modelledDuration, Nanoseconds(4'000));
        // A prefetch after a discard zero-fills: no copy (no allocation cost on this machine).
        QVERIFY(p.directives[3].afterDrop);
        QCOMPARE(p.directives[3].modelledPath, std::string("zero-fill"));
        QCOMPARE(p.directives[3].modelledDuration, Nanoseconds(0));
    }

    void aMachineWithoutTheLinkIsRefusedByName() {
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Ssd, true)});
        const QString error = errorOf([&] { replay::buildReplayProgram(profile, plan); });
        QVERIFY2(error.contains("directive 0") && error.contains("SSD"), qPrintable(error));
    }

    void packedTensorsDoNotOverlapAndArePageAligned() {
        const Profile profile = chainProfile();
        const replay::ReplayProgram p = replay::buildReplayProgram(profile, exported(profile, {}));
        QVERIFY(p.arenaKind == replay::ArenaKind::Managed);
        QVERIFY(!p.plannedOffsets);
        Bytes end = 0;
        for (std::size_t t = 0; t < profile.tensors.size(); ++t) {
            const auto& r = p.tensors[t];
            QCOMPARE(r.bytes, profile.tensors[t].bytes);
            QCOMPARE(r.offset % 4096, Bytes(0));
            QVERIFY(r.offset >= end);
            end = r.offset + r.bytes;
        }
        QVERIFY(p.arenaBytes >= end);
        // k2 reads a2 and w, writes a3: its ranges are those tensors'.
        QCOMPARE(p.kernels[2].reads.size(), std::size_t(2));
        QCOMPARE(p.kernels[2].reads[1].offset, p.tensors[0].offset);
        QCOMPARE(p.kernels[2].writes[0].offset, p.tensors[3].offset);
    }

    void prefetchesGoInOtherDirectivesOutAndEachWaitsForItsTensorsLast() {
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                     directive(DirectiveKind::Prefetch, 1, 15),
                                                     directive(DirectiveKind::Prefetch, 2, 10)});
        const replay::ReplayProgram p = replay::buildReplayProgram(profile, plan);
        QVERIFY(p.directives[0].stream == replay::SideStream::Out);
        QVERIFY(p.directives[1].stream == replay::SideStream::In);
        QVERIFY(p.directives[2].stream == replay::SideStream::In);
        // w's prefetch waits for w's pre-evict, earlier in this iteration.
        QVERIFY(p.directives[2].hasCrossWait);
        QCOMPARE(p.directives[2].crossWait.directive, std::size_t(0));
        QVERIFY(!p.directives[2].crossWait.previousIteration);
        // w's pre-evict waits for w's prefetch of the iteration before; w2 has nothing to wait for.
        QVERIFY(p.directives[0].hasCrossWait);
        QCOMPARE(p.directives[0].crossWait.directive, std::size_t(2));
        QVERIFY(p.directives[0].crossWait.previousIteration);
        QVERIFY(!p.directives[1].hasCrossWait);
    }

    void aPlannedArenaPutsTensorsAtItsOffsetsInDeviceMemory() {
        const Profile profile = chainProfile();
        ExportedPlan plan = exported(profile, {});
        plan.plan.placement = "hand";
        plan.plan.arenaBytes = 3 * kMiB;
        // a1 and a3 share an offset (their lifetimes do not overlap).
        plan.plan.arena = {{10, -1, 0, kWeightBytes}, {11, -1, 2 * kMiB, 4096}, {12, -1, 2 * kMiB + 4096, 4096},
                           {13, -1, 2 * kMiB, 4096}, {15, -1, 0, kWeightBytes}, {14, -1, 2 * kMiB + 4096, 4096}};
        const replay::ReplayProgram p = replay::buildReplayProgram(profile, plan);
        QVERIFY(p.arenaKind == replay::ArenaKind::Device);
        QVERIFY(p.plannedOffsets);
        QCOMPARE(p.arenaBytes, 3 * kMiB);
        QCOMPARE(p.tensors[1].offset, 2 * kMiB);
        QCOMPARE(p.tensors[3].offset, 2 * kMiB);
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        QVERIFY(replay::buildReplayProgram(profile, plan, managed).arenaKind == replay::ArenaKind::Managed);

        plan.plan.arena.pop_back();  // "out" has no slot now
        const QString error = errorOf([&] { replay::buildReplayProgram(profile, plan); });
        QVERIFY2(error.contains("no slot for tensor 14"), qPrintable(error));
        ExportedPlan noArena = exported(profile, {});
        replay::ReplayOptions device;
        device.arena = replay::ArenaChoice::Device;
        QVERIFY(errorOf([&] { replay::buildReplayProgram(profile, noArena, device); }).contains("arena"));
    }

    void plansThatDoNotFitTheirProfileAreRefusedByName() {
        const Profile profile = chainProfile();
        QVERIFY(errorOf([&] { replay::buildReplayProgram(profile, exported(profile, {directive(DirectiveKind::Prefetch, 9, 10)})); })
                    .contains("directive 0"));
        QVERIFY(errorOf([&] { replay::buildReplayProgram(profile, exported(profile, {directive(DirectiveKind::Prefetch, 1, 77)})); })
                    .contains("unknown tensor id"));
        QVERIFY(errorOf([&] { replay::buildReplayProgram(profile, exported(profile, {}, {0, 0, 1, 2})); })
                    .contains("not a permutation"));
        // A directive kind the runtime does not know (a later format's) is refused by name.
        Directive future = directive(DirectiveKind::Prefetch, 1, 10);
        future.kind = static_cast<DirectiveKind>(99);
        const QString error = errorOf([&] { replay::buildReplayProgram(profile, exported(profile, {future})); });
        QVERIFY2(error.contains("directive 0") && error.contains("not one this replay runtime knows") &&
                     error.contains("advise"),
                 qPrintable(error));
        QVERIFY(replay::replayActionFor("advise") == replay::ReplayAction::Advise);
    }

    // --discards: its forms, a canonical text that reads back the same, and the character it
    // cannot read.
    void aDiscardSelectionReadsItsForms() {
        using replay::DiscardSelection;
        QVERIFY(DiscardSelection::parse("all").issuesAll() && DiscardSelection{}.issues(7));
        QVERIFY(DiscardSelection::parse("none").issuesNone() && !DiscardSelection::none().issues(0));
        const DiscardSelection only = DiscardSelection::parse("12,40-42,3,41-44");
        QCOMPARE(only.text(), std::string("3,12,40-44"));
        QVERIFY(only.issues(3) && only.issues(12) && only.issues(44) && !only.issues(45) && !only.issues(11));
        QCOMPARE(only.singles(), (std::vector<std::int64_t>{3, 12}));
        QCOMPARE(only.largestIndex(), std::int64_t(44));
        const DiscardSelection except = DiscardSelection::parse("except:5-6");
        QVERIFY(except.issues(4) && !except.issues(5) && !except.issues(6) && except.issues(7));
        for (const char* text : {"all", "none", "3,12,40-44", "except:5-6", "0"})
            QVERIFY(DiscardSelection::parse(DiscardSelection::parse(text).text()) == DiscardSelection::parse(text));
        const auto refused = [](const char* text) { return errorOf([&] { DiscardSelection::parse(text); }); };
        QVERIFY2(refused("12,x").contains("at character 4"), qPrintable(refused("12,x")));
        QVERIFY2(refused("9-3").contains("ending before it starts"), qPrintable(refused("9-3")));
        QVERIFY(refused("").contains("at character 1"));
        QVERIFY(refused("-3").contains("at character 1"));
        QVERIFY(refused("3;4").contains("expected ','"));
        QVERIFY(refused("except:").contains("at character 8"));
        QVERIFY(refused("99999999999999999999").contains("too large"));
    }

    // The builder checks the selection against the plan: an index named on its own must be a drop,
    // and none may lie beyond the plan.
    void aDiscardSelectionMustNameThePlansDrops() {
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::Prefetch, 1, 10),
                                                     directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true)});
        replay::ReplayOptions options;
        options.arena = replay::ArenaChoice::Managed;
        const auto built = [&](const char* selection) {
            options.discards = replay::DiscardSelection::parse(selection);
            return errorOf([&] { replay::buildReplayProgram(profile, plan, options); });
        };
        QVERIFY(built("1").isEmpty());
        QVERIFY(built("0-1").isEmpty());  // a range may span other directives
        QVERIFY2(built("0").contains("directive 0 is a prefetch, not a drop"), qPrintable(built("0")));
        QVERIFY2(built("except:2").contains("directive 2 is beyond the plan's 2 directives"), qPrintable(built("except:2")));
        options.discards = replay::DiscardSelection::parse("1");
        QCOMPARE(replay::buildReplayProgram(profile, plan, options).discards.text(), std::string("1"));
    }

    void aProfileWithAnotherHashIsRefusedNamingBoth() {
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {});
        Profile other = profile;
        other.kernels[0].duration += 1;
        const QString error =
            errorOf([&] { replay::checkPlanMatchesProfile(plan, other, "plan.json", "other.profile.json"); });
        QVERIFY2(error.contains(QString::fromStdString(plan.profileHash)) &&
                     error.contains(QString::fromStdString(profileHash(other))) && error.contains("plan.json") &&
                     error.contains("other.profile.json"),
                 qPrintable(error));
        replay::checkPlanMatchesProfile(plan, profile, "plan.json", "profile.json");  // same: no throw
    }
};

QTEST_GUILESS_MAIN(TestReplayProgram)
#include "tst_replay_program.moc"
