using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Versions, status names, last error and parameter facts.</summary>
    [TestFixture]
    public class LibraryTests
    {
        [Test]
        public void AllParamsOnceByNameWithTheirOwners()
        {
            Param[] all = Params.All();
            Assert.Greater(all.Length, 20);
            var names = new System.Collections.Generic.HashSet<string>();
            foreach (Param p in all)
            {
                Assert.IsTrue(names.Add(p.Name()));
                Assert.AreEqual(p, Params.FromName(p.Name()));
            }
            Assert.AreEqual(ParamOwner.Kernel, Param.Gamma.Owners() & ParamOwner.Kernel);
            Assert.AreEqual((ParamOwner)0, Param.Gamma.Owners() & ParamOwner.Context);
            Assert.AreEqual(ParamOwner.Context, Param.Threads.Owners() & ParamOwner.Context);
            Assert.IsTrue(Param.EarlyLevel.UsedBy(SolverMethod.DcsvmEarly));
            Assert.IsFalse(Param.EarlyLevel.UsedBy(SolverMethod.Svm));
        }

        [Test]
        public void VersionMatchesTheHeader()
        {
            Assert.AreEqual(Library.HeaderVersion, Library.Version);
            string[] parts = Library.Version.Split('.');
            Assert.AreEqual(int.Parse(parts[0]) * 10000 + int.Parse(parts[1]) * 100 + int.Parse(parts[2]),
                            Library.VersionNumber);
        }

        [Test]
        public void AssemblyVersionIsTheLibraryVersion()
        {
            System.Reflection.Assembly assembly = typeof(Library).Assembly;
            System.Version version = assembly.GetName().Version;
            Assert.AreEqual(Library.Version, version.Major + "." + version.Minor + "." + version.Build);
            Assert.AreEqual(0, version.Revision);
            var informational = (System.Reflection.AssemblyInformationalVersionAttribute)System.Attribute.GetCustomAttribute(
                assembly, typeof(System.Reflection.AssemblyInformationalVersionAttribute));
            Assert.IsNotNull(informational);
            Assert.AreEqual(Library.Version, informational.InformationalVersion);
        }

        [Test]
        public void StatusNamesComeFromC()
        {
            Assert.AreEqual("KMX_OK", Library.StatusName(Status.Ok));
            Assert.AreEqual("KMX_E_INVALID_ARGUMENT", Library.StatusName(Status.InvalidArgument));
            Assert.AreEqual("KMX_E_NUMERICAL", Library.StatusName(Status.Numerical));
        }

        [Test]
        public void LastErrorIsKeptUntilCleared()
        {
            Assert.Throws<KmxException>(() => Param.Gamma.Check(-1));
            StringAssert.Contains("gamma", Library.LastError);
            Library.ClearError();
            Assert.AreEqual("", Library.LastError);
        }

        [Test]
        public void ParamNamesRoundTrip()
        {
            foreach (Param param in System.Enum.GetValues(typeof(Param)))
                Assert.AreEqual(param, Params.FromName(param.Name()));
            Assert.AreEqual("gamma", Param.Gamma.Name());
        }

        [Test]
        public void ParamFactsComeFromTheLibrarysTable()
        {
            Assert.AreEqual(1e-6, Param.Lambda.Default());
            Assert.AreEqual("rbf", Param.Kernel.ValueName(0));
            Assert.AreEqual("falkon", Param.Method.ValueName(7));
            Assert.IsNull(Param.Gamma.ValueName(0));
            StringAssert.Contains("cost", Param.C.Description());
        }

        [Test]
        public void ParamBoundsDescribeTheRange()
        {
            ParamBounds gamma = Param.Gamma.Bounds();
            Assert.AreEqual(0.0, gamma.Lower);
            Assert.IsTrue(gamma.LowerOpen);
            Assert.IsFalse(gamma.IsInteger);
            ParamBounds threads = Param.Threads.Bounds();
            Assert.AreEqual(0.0, threads.Lower);
            Assert.AreEqual(1024.0, threads.Upper);
            Assert.IsTrue(threads.IsInteger);
            Assert.IsTrue(Param.Kernel.Bounds().IsEnum);
            Assert.IsTrue(Param.KmeansTol.Bounds().UpperOpen);
        }

        [Test]
        public void ParamCheckAcceptsAndRejects()
        {
            Param.Gamma.Check(0.5);
            var e = Assert.Throws<KmxException>(() => Param.Degree.Check(2.5));
            Assert.AreEqual(Status.InvalidArgument, e.Status);
            var unknown = Assert.Throws<KmxException>(() => Params.FromName("no_such_param"));
            StringAssert.Contains("no_such_param", unknown.NativeMessage);
        }

        [Test]
        public void MachineAsKmxSeesIt()
        {
            Assert.AreEqual(System.Environment.ProcessorCount, Library.Cores);
            long available = Library.MemoryAvailable;
            Assert.Greater(available, 1L << 20);
            Assert.AreEqual(0.8 * available, Library.DefaultMemoryBudget, 0.1 * available);
            CollectionAssert.Contains(new[] { "skx", "knl", "zen3", "zen2", "zen", "haswell", "sandybridge", "penryn",
                                              "excavator", "steamroller", "piledriver", "bulldozer", "generic" },
                                      Library.KernelSet);
            Assert.IsTrue(Library.KernelSetOrigin.StartsWith("cpu features") || Library.KernelSetOrigin == "BLIS_ARCH_TYPE",
                          Library.KernelSetOrigin);
            Assert.Greater(Library.MeasureDgemmGflops(), 0.1);
            using (var ctx = new Context())
                Assert.AreEqual((double)Library.Cores, ctx.GetParam(Param.Threads));
        }
    }
}
