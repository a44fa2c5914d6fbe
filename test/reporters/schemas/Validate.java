// Validates XML documents against an XSD with the JDK's own validator (javax.xml.validation), so
// that the tests check the XML reports against a schema without a network or an npm package.
// Usage: java Validate.java SCHEMA.xsd FILE.xml...; prints "FILE: valid" or "FILE: invalid: why".
import java.io.File;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;

public class Validate {
  public static void main(String[] args) throws Exception {
    SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    Validator validator = factory.newSchema(new File(args[0])).newValidator();
    validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    for (int i = 1; i < args.length; i++) {
      try {
        validator.validate(new StreamSource(new File(args[i])));
        System.out.println(args[i] + ": valid");
      } catch (Exception e) {
        System.out.println(args[i] + ": invalid: " + e.getMessage().replace('\n', ' '));
      }
    }
  }
}
