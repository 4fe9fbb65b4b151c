using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Xml.Linq;
using NUnit.Framework;

namespace Kmx.Tests
{
    /// <summary>Kmx.xml, the XML docs the compiler writes for Kmx.dll (KMX_CS_DOC names it): a summary for every
    /// public type and member. The build already fails on a public member without any XML comment (CS1591).</summary>
    [TestFixture]
    public class DocumentationTests
    {
        /// <summary>SWIG's enums: their items mirror kmx.h, where they are documented; the types have summaries.</summary>
        static readonly HashSet<Type> GeneratedEnums = new HashSet<Type>
        {
            typeof(Status), typeof(Param), typeof(LogSeverity), typeof(FileFormat), typeof(KernelType), typeof(SolverMethod),
            typeof(BiasMode), typeof(MulticlassMode), typeof(ModelInfoKey), typeof(LearningTask), typeof(CenterSelection),
            typeof(ApproxMethod), typeof(PredictorInfoKey), typeof(SystemKey), typeof(DataPrecision), typeof(LossFunction),
            typeof(StorageType),
        };

        Dictionary<string, XElement> members;

        [TestFixtureSetUp]
        public void ReadDocs()
        {
            string path = Environment.GetEnvironmentVariable("KMX_CS_DOC");
            if (string.IsNullOrEmpty(path)) throw new InvalidOperationException("KMX_CS_DOC is not set");
            XDocument doc = XDocument.Load(path);
            Assert.AreEqual("Kmx", doc.Root.Element("assembly").Element("name").Value);
            members = doc.Root.Element("members").Elements("member").ToDictionary(m => (string)m.Attribute("name"));
        }

        static bool HasSummary(XElement member) =>
            member.Element("summary") != null && member.Element("summary").Value.Trim().Length > 0;

        [Test]
        public void EveryDocumentedMemberHasASummary()
        {
            Assert.Greater(members.Count, 200);
            CollectionAssert.IsEmpty(members.Values.Where(m => !HasSummary(m)).Select(m => (string)m.Attribute("name")));
        }

        [Test]
        public void EveryPublicTypeHasASummary()
        {
            Type[] types = typeof(Library).Assembly.GetExportedTypes();
            Assert.Greater(types.Length, 30);
            CollectionAssert.IsEmpty(types.Where(t => !members.TryGetValue("T:" + t.FullName.Replace('+', '.'), out XElement m) ||
                                                      !HasSummary(m)).Select(t => t.FullName));
        }

        /// <summary>The XML doc id of a member, without a method's parameter list (overloads share it).</summary>
        static string DocIdPrefix(MemberInfo member)
        {
            string owner = member.DeclaringType.FullName.Replace('+', '.');
            if (member is ConstructorInfo) return "M:" + owner + ".#ctor";
            if (member is MethodInfo) return "M:" + owner + "." + member.Name;
            if (member is PropertyInfo) return "P:" + owner + "." + member.Name;
            if (member is FieldInfo) return "F:" + owner + "." + member.Name;
            if (member is EventInfo) return "E:" + owner + "." + member.Name;
            return null; // nested types are checked as types
        }

        [Test]
        public void EveryPublicMemberIsDocumented()
        {
            var missing = new List<string>();
            int checkedMembers = 0;
            foreach (Type type in typeof(Library).Assembly.GetExportedTypes())
            {
                if (GeneratedEnums.Contains(type)) continue;
                // A delegate (KernelFunction) has the runtime's members (Invoke, BeginInvoke, ...): its type has the summary.
                if (typeof(Delegate).IsAssignableFrom(type)) continue;
                const BindingFlags visible = BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly;
                foreach (MemberInfo member in type.GetMembers(visible))
                {
                    if (member is MethodInfo method && method.IsSpecialName) continue; // property and event accessors
                    if (type.IsEnum && member.Name == "value__") continue;
                    string prefix = DocIdPrefix(member);
                    if (prefix == null) continue;
                    ++checkedMembers;
                    bool documented = members.Keys.Any(id => id == prefix || id.StartsWith(prefix + "(", StringComparison.Ordinal));
                    if (!documented) missing.Add(prefix);
                }
            }
            CollectionAssert.IsEmpty(missing);
            Assert.Greater(checkedMembers, 150);
        }

        [Test]
        public void TheCallsNameTheirParameters()
        {
            Assert.IsTrue(members.ContainsKey("M:Kmx.Model.Predict(Kmx.Context,Kmx.Dataset)"));
            Assert.IsTrue(members.ContainsKey("M:Kmx.Solver.Train(Kmx.Context,Kmx.Kernel,Kmx.Dataset)"));
            Assert.IsTrue(members.ContainsKey("M:Kmx.Dataset.Load(System.String)"));
            StringAssert.Contains("kmx_status", members["T:Kmx.Status"].Element("summary").Value);
        }
    }
}
